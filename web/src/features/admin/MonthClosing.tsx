import type { MonthlyReport } from '@astra/contracts';
import { Button, Code, DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { Lock } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { explainError } from './AuditStates';
import { useCloseMonthMutation, useGetClosedMonthsQuery } from './auditApi';
import { formatInstant, formatMonth } from './auditFormat';

/**
 * Whether the report's month is closed (by whom, when, its checksum) or, when it has ended and is
 * the month to close next, the button that closes it (docs/finance.md, "Closing a month").
 */
export function MonthClosing({ report }: { report: MonthlyReport }) {
  const closedMonths = useGetClosedMonthsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [closeMonth, closing] = useCloseMonthMutation();
  const [confirming, setConfirming] = useState(false);
  const name = formatMonth(report.month);

  if (report.closed) {
    const { closedAt, adminId, sha256, through } = report.closed;
    const closedBy =
      closedMonths.data?.items.find((each) => each.month === report.month)?.adminEmail ?? adminId;
    return (
      <DataList.Root
        orientation="vertical"
        size="sm"
        display="grid"
        gridTemplateColumns={{ base: '1fr', md: 'auto auto minmax(0, 1fr)' }}
        gap="3"
        borderWidth="1px"
        borderColor="border"
        rounded="lg"
        p="3"
        data-testid="month-closed"
      >
        <DataList.Item>
          <DataList.ItemLabel>
            <HStack gap="1">
              <Lock aria-hidden size="14" /> Closed by
            </HStack>
          </DataList.ItemLabel>
          <DataList.ItemValue>{closedBy}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Closed at</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={closedAt}>{formatInstant(closedAt)}</time>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            SHA-256 of the CSV as closed (through position {through})
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Code size="sm" variant="surface" wordBreak="break-all" data-testid="closed-sha256">
              {sha256}
            </Code>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
    );
  }

  const next = closedMonths.data?.next;
  if (!closedMonths.data || Date.now() < Date.parse(report.to)) return null;
  if (next && report.month < next)
    return (
      <Text fontSize="sm" color="fg.muted">
        Closed with the months up to {formatMonth(next)}: nothing recorded later is booked in it.
      </Text>
    );
  if (next && report.month > next)
    return (
      <Text fontSize="sm" color="fg.muted">
        Open. Months close in order: close {formatMonth(next)} first.
      </Text>
    );

  const close = async () => {
    try {
      await closeMonth(report.month).unwrap();
      notifySuccess(`${name} is closed`);
    } catch (error) {
      notifyError(`Could not close ${name}`, explainError(error));
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} align={{ sm: 'center' }} gap="3">
      <Text fontSize="sm" color="fg.muted" flex="1">
        {name} has ended and is open: events recorded later can still change it.
      </Text>
      <Button size="sm" variant="outline" onClick={() => setConfirming(true)} flexShrink={0}>
        <Lock aria-hidden />
        Close month
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && !closing.isLoading && setConfirming(false)}
        title={`Close ${name}?`}
        cancelLabel="Cancel"
        confirmLabel="Close month"
        busyLabel="Closing..."
        busy={closing.isLoading}
        onConfirm={() => void close()}
      >
        <Text>
          Its report is frozen as it stands now, with its checksum on record. Anything recorded
          later with a time in {name} is booked in the next open month, as a dated adjustment.
        </Text>
        <Text fontSize="sm" color="fg.muted">
          A closed month cannot be reopened, and months close in order.
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
