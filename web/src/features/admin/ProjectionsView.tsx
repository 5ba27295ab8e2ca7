import type {
  ProjectionsOverview,
  ReactorMessage,
  ReactorStatus,
  RebuildStatus,
  VerifyResult,
} from '@astra/contracts';
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
  VisuallyHidden,
} from '@chakra-ui/react';
import { Hammer, RotateCw, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { MAIL_STATUS_PALETTE } from '../devMail/mailLabels';
import { EmptyNote, explainError, QueryError, TableFrame, useRelockOn } from './AuditStates';
import { relockIfExpired } from './adminApi';
import { formatCount } from './adminFormat';
import {
  useGetProjectionsQuery,
  useRebuildProjectionsMutation,
  useRetryReactorMessageMutation,
  useVerifyLedgerMutation,
} from './auditApi';
import { formatInstant } from './auditFormat';

const STATUS_PALETTE = { running: 'green', stopped: 'gray', failing: 'red' } as const;

const formatSeconds = (seconds: number) =>
  seconds < 10 ? `${seconds.toFixed(1)} s` : `${formatCount(Math.round(seconds))} s`;

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
function Reactors({ overview }: { overview: ProjectionsOverview }) {
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
