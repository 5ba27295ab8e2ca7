import type { ProjectionsOverview, RebuildStatus, VerifyResult } from '@astra/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  DataList,
  Heading,
  HStack,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { Hammer, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { EmptyNote, explainError, QueryError, TableFrame, useRelockOn } from './AuditStates';
import { formatCount, formatSeconds } from './adminFormat';
import {
  useGetProjectionsQuery,
  useRebuildProjectionsMutation,
  useVerifyLedgerMutation,
} from './auditApi';
import { formatInstant } from './auditFormat';
import { Reactors } from './Reactors';

const STATUS_PALETTE = { running: 'green', stopped: 'gray', failing: 'red' } as const;

function ProjectionTable({ overview }: { overview: ProjectionsOverview }) {
  if (overview.projections.length === 0) {
    return (
      <EmptyNote title="No projections reported">
        The server named no read model: is the projector running?
      </EmptyNote>
    );
  }
  return (
    <TableFrame label="Projections table">
      <Table.Root size="sm" aria-label="Projections">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Projection</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Position</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Lag (events)</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Lag (seconds)</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Error</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {overview.projections.map((projection) => (
            <Table.Row key={projection.name} data-projection={projection.name}>
              <Table.Cell fontWeight="medium">{projection.name}</Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {projection.position}
              </Table.Cell>
              <Table.Cell
                textAlign="end"
                fontVariantNumeric="tabular-nums"
                color={projection.lagEvents > 0 ? 'fg.warning' : 'fg.success'}
                data-testid="lag-events"
              >
                {formatCount(projection.lagEvents)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {formatSeconds(projection.lagSeconds)}
              </Table.Cell>
              <Table.Cell>
                <Badge colorPalette={STATUS_PALETTE[projection.status]} variant="subtle">
                  {projection.status}
                </Badge>
              </Table.Cell>
              <Table.Cell
                whiteSpace="normal"
                minW="40"
                color={projection.error ? 'fg.error' : 'fg.muted'}
              >
                {projection.error ?? '—'}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/** Who applies the projections: the API process, or the projector process that leads. */
function ProjectorLeaders({ overview }: { overview: ProjectionsOverview }) {
  const run = overview.projector;
  if (run.mode === 'in-process') {
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="projector-leader">
        Applied inside the API process (<Code size="sm">PROJECTOR=in-process</Code>).
      </Text>
    );
  }
  if (run.leaders.length === 0) {
    return (
      <Alert.Root status="warning" data-testid="projector-leader">
        <Alert.Indicator />
        <Alert.Title>
          No projector process leads: none runs, or a standby is taking over.
        </Alert.Title>
      </Alert.Root>
    );
  }
  return (
    <Stack gap="1" data-testid="projector-leader">
      {run.leaders.map((leader) => (
        <Text key={leader.projections.join(',')} fontSize="sm">
          <Badge colorPalette="green" variant="subtle" mr="2">
            leading
          </Badge>
          Process {leader.pid} on {leader.host}, term {leader.term}, since{' '}
          <time dateTime={leader.since}>{formatInstant(leader.since)}</time>
          {leader.projections.length < overview.projections.length
            ? ` (${leader.projections.join(', ')})`
            : ''}
          ; the other <Code size="sm">npm run projector</Code> processes wait as standbys.
        </Text>
      ))}
    </Stack>
  );
}

function VerifyLines({ result, title }: { result: VerifyResult; title: string }) {
  return (
    <Stack gap="2" data-testid="verify-result">
      <HStack gap="2" wrap="wrap">
        <Text fontWeight="semibold">{title}</Text>
        <Badge colorPalette={result.ok ? 'green' : 'red'} variant="solid">
          {result.ok ? 'ok' : 'problems found'}
        </Badge>
        <Text fontSize="sm" color="fg.muted">
          <time dateTime={result.at}>{formatInstant(result.at)}</time>, from{' '}
          {result.source === 'panel' ? 'the panel' : 'the command line'}
        </Text>
      </HStack>
      {result.lines.length > 0 ? (
        <Box
          as="pre"
          fontSize="xs"
          bg="bg.subtle"
          borderWidth="1px"
          borderColor="border"
          rounded="md"
          p="3"
          maxH="64"
          overflow="auto"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          tabIndex={0}
          aria-label="ledger:verify output"
        >
          {result.lines.join('\n')}
        </Box>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          It printed nothing.
        </Text>
      )}
    </Stack>
  );
}

function RebuildProgress({ rebuild }: { rebuild: RebuildStatus }) {
  if (rebuild.state === 'idle') {
    return (
      <Text fontSize="sm" color="fg.muted">
        No rebuild has run since the server started.
      </Text>
    );
  }
  const percent =
    rebuild.target > 0 ? Math.min(100, Math.round((rebuild.replayed / rebuild.target) * 100)) : 100;
  const running = rebuild.state === 'running';
  return (
    <Stack gap="2" data-testid="rebuild-status" data-state={rebuild.state}>
      <Progress.Root
        value={running ? percent : rebuild.state === 'done' ? 100 : percent}
        colorPalette={
          rebuild.state === 'failed' ? 'red' : rebuild.state === 'done' ? 'green' : 'brand'
        }
        striped={running}
        animated={running}
        size="md"
      >
        <HStack justify="space-between" mb="1">
          <Progress.Label>
            {running
              ? 'Rebuilding the read models'
              : rebuild.state === 'done'
                ? 'Rebuild done'
                : 'Rebuild failed'}
          </Progress.Label>
          <Progress.ValueText>{percent}%</Progress.ValueText>
        </HStack>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text fontSize="sm" color="fg.muted">
        {formatCount(rebuild.replayed)} of {formatCount(rebuild.target)} events replayed
        {rebuild.startedAt ? `; started ${formatInstant(rebuild.startedAt)}` : ''}
        {rebuild.finishedAt ? `, finished ${formatInstant(rebuild.finishedAt)}` : ''}.
        {running ? ' The old read models keep serving until the new ones have caught up.' : ''}
      </Text>
      {rebuild.error && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{rebuild.error}</Alert.Title>
        </Alert.Root>
      )}
    </Stack>
  );
}

/**
 * Projections: each read model's checkpoint against the log's head (lag in events and seconds),
 * the last ledger:verify result with a button to run it, and a rebuild with its progress (the
 * overview is polled every second while it runs).
 */
export function ProjectionsView() {
  const [polling, setPolling] = useState(false);
  const overview = useGetProjectionsQuery(undefined, {
    refetchOnMountOrArgChange: true,
    pollingInterval: polling ? 1000 : 0,
    skipPollingIfUnfocused: false,
  });
  const running = overview.data?.rebuild.state === 'running';
  if (running !== polling) setPolling(running);
  useRelockOn(overview.error);

  const [verify, verifying] = useVerifyLedgerMutation();
  const [rebuild, rebuilding] = useRebuildProjectionsMutation();
  const [confirming, setConfirming] = useState(false);
  const [verifyResult, setVerifyResult] = useState<VerifyResult | null>(null);

  const runVerify = async () => {
    try {
      const result = await verify().unwrap();
      setVerifyResult(result);
      if (result.ok) notifySuccess('ledger:verify found no problem');
      else notifyError('ledger:verify found problems', result.lines[0]);
    } catch (error) {
      notifyError('Could not run ledger:verify', explainError(error));
    }
  };

  const runRebuild = async () => {
    try {
      await rebuild().unwrap();
      notifySuccess('Rebuild started');
    } catch (error) {
      const info = describeApiError(error);
      if (info.code === 'rebuild_running') notifyError('A rebuild is running already');
      else notifyError('Could not start the rebuild', explainError(error));
    } finally {
      setConfirming(false);
    }
  };

  const data = overview.data;
  const shownVerify = verifyResult ?? data?.lastVerify ?? null;

  return (
    <Stack gap="5">
      <Surface as="section" aria-labelledby="projections-heading" gap="4">
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="3">
          <Stack gap="1">
            <Heading as="h2" size="lg" id="projections-heading">
              Projections
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              Each read model's checkpoint against the head of the event log.
            </Text>
          </Stack>
          {data && (
            <DataList.Root orientation="horizontal" size="sm" gap="1">
              <DataList.Item>
                <DataList.ItemLabel>Log head</DataList.ItemLabel>
                <DataList.ItemValue fontVariantNumeric="tabular-nums" data-testid="head-position">
                  {data.head.position}
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Newest event</DataList.ItemLabel>
                <DataList.ItemValue>
                  {data.head.at ? (
                    <time dateTime={data.head.at}>{formatInstant(data.head.at)}</time>
                  ) : (
                    'none yet'
                  )}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          )}
        </Stack>
        {overview.isError && (
          <QueryError
            title="Could not read the projections"
            error={overview.error}
            onRetry={() => overview.refetch()}
          />
        )}
        {overview.isLoading && <Skeleton h="40" rounded="lg" />}
        {data && <ProjectionTable overview={data} />}
        {data && <ProjectorLeaders overview={data} />}
      </Surface>

      <Surface as="section" aria-labelledby="reactors-heading" gap="4">
        <Stack gap="1">
          <Heading as="h3" size="md" id="reactors-heading">
            Reactors
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            Each reacts to events with a side effect (an e-mail), once: its checkpoint against the
            head of the log, and the messages that failed.
          </Text>
        </Stack>
        {overview.isLoading && <Skeleton h="24" rounded="lg" />}
        {data && <Reactors overview={data} />}
      </Surface>

      <Surface as="section" aria-labelledby="verify-heading" gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="3">
          <Stack gap="1">
            <Heading as="h3" size="md" id="verify-heading">
              Ledger verification
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              Replays every credit stream and compares it with the read models.
            </Text>
          </Stack>
          <Button
            onClick={runVerify}
            loading={verifying.isLoading}
            loadingText="Verifying..."
            flexShrink={0}
          >
            <ShieldCheck aria-hidden />
            Run ledger:verify
          </Button>
        </Stack>
        <Box aria-live="polite">
          {shownVerify ? (
            <VerifyLines
              result={shownVerify}
              title={verifyResult ? 'This run' : 'Last verification'}
            />
          ) : (
            data && (
              <Text fontSize="sm" color="fg.muted">
                No verification has run yet: run it here or with{' '}
                <Code size="sm">npm run ledger:verify</Code>.
              </Text>
            )
          )}
        </Box>
      </Surface>

      <Surface as="section" aria-labelledby="rebuild-heading" gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="3">
          <Stack gap="1">
            <Heading as="h3" size="md" id="rebuild-heading">
              Rebuild read models
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              Replays the whole log into new tables beside the live ones and swaps them in once they
              have caught up.
            </Text>
          </Stack>
          <Button
            variant="outline"
            onClick={() => setConfirming(true)}
            disabled={running || !data}
            flexShrink={0}
          >
            <Hammer aria-hidden />
            Rebuild read models
          </Button>
        </Stack>
        <Box aria-live="polite">{data && <RebuildProgress rebuild={data.rebuild} />}</Box>
      </Surface>

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && !rebuilding.isLoading && setConfirming(false)}
        title="Rebuild the read models?"
        cancelLabel="Cancel"
        confirmLabel="Start rebuild"
        busyLabel="Starting..."
        busy={rebuilding.isLoading}
        onConfirm={() => void runRebuild()}
        confirmColorPalette="brand"
      >
        <Text>
          Every read model is rebuilt from the event log. The current ones keep answering until the
          new ones have caught up; on a large log this takes a while.
        </Text>
        {data && (
          <Text fontSize="sm" color="fg.muted">
            The log's head is at position {data.head.position}.
          </Text>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
