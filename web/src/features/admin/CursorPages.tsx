import { Button, HStack, Skeleton, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { EmptyNote, QueryError } from './AuditStates';

/**
 * Paging through a log by cursor: each page names the cursor of the next (`next`), and the
 * cursors of the pages seen on the way are kept so that the way back needs no cursor of its own.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    /** The cursor of the page shown (undefined on the first). */
    cursor: cursors[cursors.length - 1],
    /** 1 on the first page. */
    number: cursors.length,
    back: () => setCursors((old) => (old.length > 1 ? old.slice(0, -1) : old)),
    forward: (next: string) => setCursors((old) => [...old, next]),
    restart: () => setCursors([undefined]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

/** What a paged view needs of its RTK Query result. */
interface PageQuery {
  currentData?: { items: readonly unknown[]; next: string | null };
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

interface Empty {
  title: string;
  text: ReactNode;
}

/**
 * A paged view's states before its rows: the failure with a retry, a placeholder while the first
 * answer is on its way, and the empty page (on the first page: nothing at all; later: the end).
 */
export function PageStates({
  query,
  pages,
  errorTitle,
  empty,
  end,
}: {
  query: PageQuery;
  pages: CursorPages;
  errorTitle: string;
  /** The first page is empty. */
  empty: Empty;
  /** A later page is empty: the end was reached. */
  end: Empty;
}) {
  const shown = pages.number > 1 ? end : empty;
  return (
    <>
      {query.isError && (
        <QueryError title={errorTitle} error={query.error} onRetry={() => query.refetch()} />
      )}
      {query.isFetching && !query.currentData && <Skeleton h="48" rounded="lg" />}
      {query.currentData && query.currentData.items.length === 0 && (
        <EmptyNote title={shown.title}>{shown.text}</EmptyNote>
      )}
    </>
  );
}

/** The way back and on through a paged view, disabled while a page is on its way. */
export function PagerNav({
  label,
  query,
  pages,
  backLabel,
  forwardLabel,
  showNumber = false,
}: {
  label: string;
  query: PageQuery;
  pages: CursorPages;
  backLabel: string;
  forwardLabel: string;
  showNumber?: boolean;
}) {
  const next = query.currentData?.next;
  return (
    <HStack as="nav" aria-label={label} justify="space-between" gap="2">
      <Button
        size="sm"
        variant="outline"
        disabled={pages.number <= 1 || query.isFetching}
        onClick={pages.back}
      >
        <ChevronLeft aria-hidden />
        {backLabel}
      </Button>
      {showNumber && (
        <Text fontSize="sm" color="fg.muted">
          Page {pages.number}
        </Text>
      )}
      <Button
        size="sm"
        variant="outline"
        disabled={!next || query.isFetching}
        onClick={() => {
          if (next) pages.forward(next);
        }}
      >
        {forwardLabel}
        <ChevronRight aria-hidden />
      </Button>
    </HStack>
  );
}
