import type { AuditCause, AuditEntry } from '@astra/contracts';
import { Badge, Box, Button, Code, Stack, Table, Text } from '@chakra-ui/react';
import { TextLink } from '../../ui/TextLink';
import { TableFrame } from './AuditStates';
import { formatCount } from './adminFormat';
import {
  ACTOR_PALETTE,
  causePairs,
  formatInstant,
  formatMoneyList,
  formatSignedCredits,
  formatSignedMoney,
  parseActor,
  userLabel,
  userLedgerPath,
} from './auditFormat';

function ActorCell({ actor }: { actor: string }) {
  const view = parseActor(actor);
  return (
    <Stack gap="1" align="flex-start" minW="36">
      <Badge colorPalette={ACTOR_PALETTE[view.kind]} variant="subtle">
        {view.kind === 'other' ? 'other' : view.kind}
      </Badge>
      {view.who && (
        <Text
          fontSize="xs"
          color="fg.muted"
          overflowWrap="anywhere"
          whiteSpace="normal"
          title={view.who}
        >
          {view.kind === 'user' && view.who.length > 13 ? `${view.who.slice(0, 8)}…` : view.who}
        </Text>
      )}
    </Stack>
  );
}

function CauseCell({ cause }: { cause: AuditCause }) {
  const pairs = causePairs(cause);
  if (pairs.length === 0) return <Text color="fg.muted">—</Text>;
  return (
    <Box as="dl" fontSize="xs" whiteSpace="normal" minW="56" maxW="sm">
      {pairs.map(({ key, value }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pairs keep their order
        <Box key={index} display="flex" gap="1" flexWrap="wrap">
          {key && (
            <Text as="dt" color="fg.muted">
              {key}
            </Text>
          )}
          <Text as="dd" overflowWrap="anywhere">
            {value}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

interface AuditEntryTableProps {
  entries: AuditEntry[];
  /** What the table shows, for assistive technology (and its scroll area's name). */
  label: string;
  /** The user column, with a link to their ledger (the explorer); a user's own ledger omits it. */
  showUser?: boolean;
  /** "Balance as of this event" on each row (a user's ledger). */
  onBalanceAt?: (entry: AuditEntry) => void;
  /** The position of a row to mark (the event a balance as of ends at). */
  highlight?: string | null;
}

/**
 * Credit events as the audit sees them: position, time, who it concerns, what happened, the
 * credits and balance after, the money, who acted, why, and the correlation id. Wide: it scrolls
 * sideways on its own on a narrow screen.
 */
export function AuditEntryTable({
  entries,
  label,
  showUser,
  onBalanceAt,
  highlight,
}: AuditEntryTableProps) {
  return (
    <TableFrame label={label}>
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Position</Table.ColumnHeader>
            <Table.ColumnHeader>Time</Table.ColumnHeader>
            {showUser && <Table.ColumnHeader>User</Table.ColumnHeader>}
            <Table.ColumnHeader>Event</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Credits</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Balance after</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Money</Table.ColumnHeader>
            <Table.ColumnHeader>Actor</Table.ColumnHeader>
            <Table.ColumnHeader>Cause</Table.ColumnHeader>
            <Table.ColumnHeader>Correlation id</Table.ColumnHeader>
            {onBalanceAt && (
              <Table.ColumnHeader>
                <Text srOnly>Actions</Text>
              </Table.ColumnHeader>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {entries.map((entry) => (
            <Table.Row
              key={entry.position}
              data-position={entry.position}
              data-type={entry.type}
              verticalAlign="top"
              bg={entry.position === highlight ? 'bg.emphasized' : undefined}
              aria-current={entry.position === highlight ? 'true' : undefined}
            >
              <Table.Cell fontVariantNumeric="tabular-nums">{entry.position}</Table.Cell>
              <Table.Cell>
                <time dateTime={entry.occurredAt}>{formatInstant(entry.occurredAt)}</time>
              </Table.Cell>
              {showUser && (
                <Table.Cell>
                  <TextLink to={userLedgerPath(entry.userId)} fontSize="sm">
                    {userLabel(entry.email, entry.userId)}
                  </TextLink>
                </Table.Cell>
              )}
              <Table.Cell>
                <Stack gap="0.5" minW="44" maxW="xs" whiteSpace="normal">
                  <Text fontWeight="medium">{entry.type}</Text>
                  {entry.description && entry.description !== entry.type && (
                    <Text fontSize="xs" color="fg.muted">
                      {entry.description}
                    </Text>
                  )}
                </Stack>
              </Table.Cell>
              <Table.Cell
                textAlign="end"
                fontVariantNumeric="tabular-nums"
                fontWeight="semibold"
                color={entry.credits < 0 ? 'fg.error' : entry.credits > 0 ? 'fg.success' : 'fg'}
              >
                {formatSignedCredits(entry.credits)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {formatCount(entry.balanceAfter)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                <Stack gap="0.5" align="flex-end">
                  <Text>{entry.money ? formatSignedMoney(entry.money) : '—'}</Text>
                  {entry.lotValue.length > 0 && (
                    <Text fontSize="xs" color="fg.muted">
                      lots {formatMoneyList(entry.lotValue)}
                    </Text>
                  )}
                  {entry.adminDeducted.length > 0 && (
                    <Text fontSize="xs" color="fg.muted">
                      admin deduction {formatMoneyList(entry.adminDeducted)}
                    </Text>
                  )}
                </Stack>
              </Table.Cell>
              <Table.Cell>
                <ActorCell actor={entry.actor} />
              </Table.Cell>
              <Table.Cell>
                <CauseCell cause={entry.causeFields} />
              </Table.Cell>
              <Table.Cell>
                <Code
                  size="sm"
                  variant="surface"
                  whiteSpace="normal"
                  wordBreak="break-all"
                  maxW="48"
                >
                  {entry.correlationId || '—'}
                </Code>
              </Table.Cell>
              {onBalanceAt && (
                <Table.Cell>
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`Balance here, at position ${entry.position}`}
                    onClick={() => onBalanceAt(entry)}
                  >
                    Balance here
                  </Button>
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}
