import type { ProjectionsOverview, ReactorMessage, ReactorStatus } from '@astra/contracts';
import { Badge, Button, Heading, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { RotateCw } from 'lucide-react';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { MAIL_STATUS_PALETTE } from '../devMail/mailLabels';
import { EmptyNote, explainError, TableFrame } from './AuditStates';
import { relockIfExpired } from './adminApi';
import { formatCount, formatSeconds } from './adminFormat';
import { useRetryReactorMessageMutation } from './auditApi';
import { formatInstant } from './auditFormat';

/** Lag in events, coloured as the projections' (0: caught up). */
function LagEvents({ events }: { events: number }) {
  return (
    <Table.Cell
      textAlign="end"
      fontVariantNumeric="tabular-nums"
      color={events > 0 ? 'fg.warning' : 'fg.success'}
      data-testid="reactor-lag-events"
    >
      {formatCount(events)}
    </Table.Cell>
  );
}

function ReactorTable({ reactors }: { reactors: ReactorStatus[] }) {
  return (
    <TableFrame label="Reactors table">
      <Table.Root size="sm" aria-label="Reactors">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Reactor</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Position</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Lag (events)</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Lag (seconds)</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Pending</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Failing</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Parked</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {reactors.map((reactor) => (
            <Table.Row key={reactor.name} data-reactor={reactor.name}>
              <Table.Cell fontWeight="medium">{reactor.name}</Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {reactor.position}
              </Table.Cell>
              <LagEvents events={reactor.lagEvents} />
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {formatSeconds(reactor.lagSeconds)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {formatCount(reactor.pending)}
              </Table.Cell>
              <Table.Cell
                textAlign="end"
                fontVariantNumeric="tabular-nums"
                color={reactor.failing > 0 ? 'fg.warning' : undefined}
              >
                {formatCount(reactor.failing)}
              </Table.Cell>
              <Table.Cell
                textAlign="end"
                fontVariantNumeric="tabular-nums"
                color={reactor.parked > 0 ? 'fg.error' : undefined}
              >
                {formatCount(reactor.parked)}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/** A reactor's failing and parked messages, each with a button to try it again now. */
function ReactorProblems({ reactor }: { reactor: ReactorStatus }) {
  const dispatch = useAppDispatch();
  const [retry, retrying] = useRetryReactorMessageMutation();
  const headingId = `reactor-${reactor.name}-problems`;

  const runRetry = async (message: ReactorMessage) => {
    try {
      const answer = await retry({ reactor: reactor.name, id: message.id }).unwrap();
      if (answer.status === 'sent') notifySuccess('This message was sent already');
      else notifySuccess('The message is tried again now');
    } catch (error) {
      notifyError('Could not retry the message', explainError(error));
      const relock = relockIfExpired(error);
      if (relock) dispatch(relock);
    }
  };

  return (
    <Stack gap="2" data-testid={`reactor-problems-${reactor.name}`}>
      <Heading as="h4" size="sm" id={headingId}>
        {reactor.name}: failing and parked messages
      </Heading>
      {reactor.problems.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          No failing or parked messages.
        </Text>
      ) : (
        <TableFrame label={`Failing and parked messages of ${reactor.name}`}>
          <Table.Root size="sm" aria-labelledby={headingId}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Kind</Table.ColumnHeader>
                <Table.ColumnHeader>Recipient</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Attempts</Table.ColumnHeader>
                <Table.ColumnHeader>Last error</Table.ColumnHeader>
                <Table.ColumnHeader>Next attempt</Table.ColumnHeader>
                <Table.ColumnHeader>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {reactor.problems.map((message) => {
                const busy = retrying.isLoading && retrying.originalArgs?.id === message.id;
                return (
                  <Table.Row key={message.id} data-message-id={message.id}>
                    <Table.Cell fontWeight="medium">{message.kind}</Table.Cell>
                    <Table.Cell color={message.recipient ? undefined : 'fg.muted'}>
                      {message.recipient ?? 'erased'}
                    </Table.Cell>
                    <Table.Cell>
                      <Badge colorPalette={MAIL_STATUS_PALETTE[message.status]} variant="subtle">
                        {message.status}
                      </Badge>
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                      {formatCount(message.attempts)}
                    </Table.Cell>
                    <Table.Cell
                      whiteSpace="normal"
                      minW="48"
                      color={message.lastError ? 'fg.error' : 'fg.muted'}
                    >
                      {message.lastError ?? '—'}
                    </Table.Cell>
                    <Table.Cell>
                      {message.nextAttemptAt ? (
                        <time dateTime={message.nextAttemptAt}>
                          {formatInstant(message.nextAttemptAt)}
                        </time>
                      ) : (
                        '—'
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <Button
                        size="xs"
                        variant="outline"
                        onClick={() => void runRetry(message)}
                        loading={busy}
                        loadingText="Retrying..."
                        disabled={retrying.isLoading && !busy}
                        aria-label={`Retry the ${message.kind} message to ${message.recipient ?? 'an erased recipient'}`}
                      >
                        <RotateCw aria-hidden />
                        Retry
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </TableFrame>
      )}
    </Stack>
  );
}

/** The reactors (events in, e-mail out): their lag, and the messages that fail or are parked. */
export function Reactors({ overview }: { overview: ProjectionsOverview }) {
  if (overview.reactors.length === 0) {
    return (
      <EmptyNote title="No reactors reported">
        The server named no reactor: is it running an older version?
      </EmptyNote>
    );
  }
  return (
    <Stack gap="5">
      <ReactorTable reactors={overview.reactors} />
      {overview.reactors.map((reactor) => (
        <ReactorProblems key={reactor.name} reactor={reactor} />
      ))}
    </Stack>
  );
}
