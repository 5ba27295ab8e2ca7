import type { DevMailMessage, MailPreview } from '@astra/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  chakra,
  DataList,
  Grid,
  Heading,
  HStack,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Mailbox } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { formatInstant } from '../admin/auditFormat';
import { useGetDevMailboxQuery, useGetDevMailPreviewsQuery } from './devMailApi';
import { MailBody } from './MailBody';
import { MAIL_STATUS_HELP, MAIL_STATUS_PALETTE, mailKindLabel } from './mailLabels';

const TITLE = 'Development mailbox';
/** How often the list is read again while the page is open. */
const POLL_MS = 3000;

const isNotFound = (error: unknown) => Boolean(error) && describeApiError(error).status === 404;

/**
 * Development only (in the spirit of Mailpit): every e-mail the product would send, kept on this
 * server instead of leaving it, newest first and read again every few seconds; and every
 * template rendered with sample data. Production answers 404, and the page says so.
 */
export default function DevMailPage() {
  const [absent, setAbsent] = useState(false);
  const mailbox = useGetDevMailboxQuery(undefined, {
    refetchOnMountOrArgChange: true,
    pollingInterval: absent ? 0 : POLL_MS,
  });
  const notFound = isNotFound(mailbox.error);
  if (notFound !== absent) setAbsent(notFound);

  return (
    <PageContainer maxW="7xl">
      <PageTitle>{TITLE}</PageTitle>
      <Stack gap="2">
        <HStack gap="3" wrap="wrap">
          <Heading as="h1" textStyle="pageTitle">
            {TITLE}
          </Heading>
          <Badge colorPalette="orange" variant="subtle" size="lg">
            Development
          </Badge>
        </HStack>
        <Text color="fg.muted">
          No e-mail leaves this server: every message the product sends is kept here instead.
        </Text>
      </Stack>
      {notFound ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Title>The development mailbox exists only in development.</Alert.Title>
        </Alert.Root>
      ) : (
        <>
          <Messages mailbox={mailbox} />
          <Templates />
        </>
      )}
    </PageContainer>
  );
}

function Messages({ mailbox }: { mailbox: ReturnType<typeof useGetDevMailboxQuery> }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const items = useMemo(
    () => [...(mailbox.data?.items ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    [mailbox.data],
  );
  // Until one is chosen (or if the chosen one is gone), the newest is shown.
  const selected = items.find((item) => item.id === selectedId) ?? items[0];

  let content: ReactNode;
  if (mailbox.isLoading) content = <Skeleton h="40" rounded="lg" />;
  else if (mailbox.isError) {
    content = (
      <LoadError title="Could not read the mailbox" error={mailbox.error} retry={mailbox.refetch} />
    );
  } else if (items.length === 0 || !selected) {
    content = (
      <Empty>No messages yet. Buy a credit pack or delete a test account to see one here.</Empty>
    );
  } else {
    content = (
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(18rem, 24rem) minmax(0, 1fr)' }} gap="5">
        <Stack
          as="ul"
          aria-label="Messages, newest first"
          gap="2"
          listStyleType="none"
          maxH={{ lg: '48rem' }}
          overflowY={{ lg: 'auto' }}
          pe={{ lg: '1' }}
        >
          {items.map((message) => (
            <li key={message.id}>
              <MessageRow
                message={message}
                selected={message.id === selected.id}
                onSelect={() => setSelectedId(message.id)}
              />
            </li>
          ))}
        </Stack>
        <MessageView message={selected} />
      </Grid>
    );
  }

  return (
    <Surface as="section" aria-labelledby="messages-heading" gap="4">
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="2">
        <Heading as="h2" size="lg" id="messages-heading">
          Messages
          {mailbox.data && (
            <Text as="span" color="fg.muted" fontWeight="normal" ms="2">
              ({mailbox.data.items.length})
            </Text>
          )}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Refreshes every few seconds.
        </Text>
      </Stack>
      {content}
    </Surface>
  );
}

function StatusBadge({ status }: { status: DevMailMessage['status'] }) {
  return (
    <Badge
      colorPalette={MAIL_STATUS_PALETTE[status]}
      variant="subtle"
      title={MAIL_STATUS_HELP[status]}
    >
      {status}
    </Badge>
  );
}

function MessageRow({
  message,
  selected,
  onSelect,
}: {
  message: DevMailMessage;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <chakra.button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      data-message-id={message.id}
      display="flex"
      flexDirection="column"
      alignItems="stretch"
      gap="1"
      w="full"
      textAlign="start"
      p="3"
      rounded="lg"
      borderWidth="1px"
      borderColor={selected ? 'brand.border' : 'border'}
      bg={selected ? 'brand.subtle' : 'bg.panel'}
      cursor="pointer"
      transitionProperty="background-color, border-color"
      transitionDuration="fast"
      _hover={selected ? undefined : { bg: 'bg.subtle' }}
      _focusVisible={{
        outlineWidth: '2px',
        outlineStyle: 'solid',
        outlineColor: 'brand.focusRing',
        outlineOffset: '2px',
      }}
    >
      <Text fontWeight="semibold" lineClamp={2}>
        {message.subject}
      </Text>
      <Text fontSize="sm" color="fg.muted" truncate>
        To {message.to}
      </Text>
      <HStack gap="2" wrap="wrap" fontSize="xs" color="fg.muted">
        <Text as="span">{mailKindLabel(message.kind)}</Text>
        <StatusBadge status={message.status} />
        <time dateTime={message.createdAt}>{formatInstant(message.createdAt)}</time>
      </HStack>
    </chakra.button>
  );
}

function MessageView({ message }: { message: DevMailMessage }) {
  return (
    <Stack
      as="article"
      aria-labelledby="message-subject"
      gap="4"
      minW="0"
      data-testid="mail-message"
    >
      <Heading as="h3" size="md" id="message-subject">
        {message.subject}
      </Heading>
      <DataList.Root orientation="horizontal" size="sm" gap="2">
        <DataList.Item>
          <DataList.ItemLabel>To</DataList.ItemLabel>
          <DataList.ItemValue>{message.to}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Message-ID</DataList.ItemLabel>
          <DataList.ItemValue minW="0">
            <Code size="sm" wordBreak="break-all">
              {message.messageId || '—'}
            </Code>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Kind</DataList.ItemLabel>
          <DataList.ItemValue>{mailKindLabel(message.kind)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Status</DataList.ItemLabel>
          <DataList.ItemValue>
            <StatusBadge status={message.status} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Created</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={message.createdAt}>{formatInstant(message.createdAt)}</time>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      {/* A new body for each message: its view starts on the HTML again. */}
      <MailBody
        key={message.id}
        subject={message.subject}
        html={message.html}
        text={message.text}
      />
    </Stack>
  );
}

function Templates() {
  const previews = useGetDevMailPreviewsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (isNotFound(previews.error)) return null;

  let content: ReactNode;
  if (previews.isLoading) content = <Skeleton h="24" rounded="lg" />;
  else if (previews.isError) {
    content = (
      <LoadError
        title="Could not read the templates"
        error={previews.error}
        retry={previews.refetch}
      />
    );
  } else if (!previews.data?.items.length) {
    content = <Empty>The server rendered no template.</Empty>;
  } else {
    content = (
      <Stack as="ul" gap="2" listStyleType="none">
        {previews.data.items.map((preview) => (
          <li key={preview.kind}>
            <TemplatePreview preview={preview} />
          </li>
        ))}
      </Stack>
    );
  }

  return (
    <Surface as="section" aria-labelledby="templates-heading" gap="4">
      <Stack gap="1">
        <Heading as="h2" size="lg" id="templates-heading">
          Templates
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Every message the product sends, rendered with sample data.
        </Text>
      </Stack>
      {content}
    </Surface>
  );
}

/** One template, folded: its body renders only once it is opened. */
function TemplatePreview({ preview }: { preview: MailPreview }) {
  const [open, setOpen] = useState(false);
  return (
    <chakra.details
      borderWidth="1px"
      borderColor="border"
      rounded="lg"
      data-kind={preview.kind}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <chakra.summary
        cursor="pointer"
        px="4"
        py="3"
        rounded="lg"
        _hover={{ bg: 'bg.subtle' }}
        _focusVisible={{
          outlineWidth: '2px',
          outlineStyle: 'solid',
          outlineColor: 'brand.focusRing',
          outlineOffset: '2px',
        }}
      >
        <Text as="span" fontWeight="semibold">
          {mailKindLabel(preview.kind)}
        </Text>
        <Text as="span" color="fg.muted">
          {' '}
          · {preview.subject}
        </Text>
      </chakra.summary>
      {open && (
        <Box px="4" pb="4" pt="1">
          <MailBody subject={preview.subject} html={preview.html} text={preview.text} />
        </Box>
      )}
    </chakra.details>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Stack
      gap="2"
      py="8"
      px="4"
      align="center"
      textAlign="center"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border"
      rounded="lg"
    >
      <Mailbox aria-hidden size={32} color="var(--chakra-colors-fg-muted)" />
      <Text color="fg.muted">{children}</Text>
    </Stack>
  );
}

function LoadError({ title, error, retry }: { title: string; error: unknown; retry: () => void }) {
  const info = describeApiError(error);
  const why =
    info.status === 'network'
      ? 'The server could not be reached.'
      : (info.message ?? 'Something went wrong.');
  return (
    <Alert.Root status="error" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{why}</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={retry} flexShrink={0}>
        Try again
      </Button>
    </Alert.Root>
  );
}
