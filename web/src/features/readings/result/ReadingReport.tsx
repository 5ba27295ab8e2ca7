import { Heading, HStack, Spinner, Text } from '@chakra-ui/react';
import type { RefObject } from 'react';
import { useTimeZone } from '../../../app/timeZone';
import { Surface } from '../../../ui/Surface';
import { ReadingText } from './ReadingText';
import { useReadingProgress } from './readingProgress';
import { formatLongDate } from './resultFields';
import { useReportHighlightContext } from './useReportHighlight';

interface ReadingReportProps {
  title: string;
  /** When the reading was made (its createdAt), shown as 'Generated on March 14, 2026'. */
  generatedAt?: string;
  /** The reading's text (paragraphs and its few marks, see ReadingText). */
  text: string;
}

/**
 * The reading's text section: the target of 'Go to Reading', highlighted for 2 seconds. While
 * the text is written it grows here, with a line saying so.
 */
export function ReadingReport({ title, generatedAt, text }: ReadingReportProps) {
  const { ref, highlighted } = useReportHighlightContext();
  const { writing, reconnecting } = useReadingProgress();
  const generatedOn = formatLongDate(generatedAt, useTimeZone());
  return (
    <Surface
      as="section"
      ref={ref as RefObject<HTMLDivElement>}
      id="reading-report"
      tabIndex={-1}
      aria-labelledby="reading-report-heading"
      data-highlighted={highlighted || undefined}
      aria-busy={writing || undefined}
      scrollMarginTop="24"
      outline="none"
      transitionProperty="box-shadow, border-color"
      transitionDuration="slow"
      borderColor={highlighted ? 'starlight.border' : undefined}
      boxShadow={highlighted ? '0 0 0 3px var(--chakra-colors-starlight-border)' : undefined}
      gap="4"
    >
      <Heading as="h2" textStyle="sectionTitle" id="reading-report-heading">
        {title}
      </Heading>
      {generatedOn && (
        <Text fontSize="sm" color="fg.muted" mt="-2">
          {`Generated on ${generatedOn}`}
        </Text>
      )}
      <ReadingText text={text} />
      {writing && (
        <HStack role="status" gap="2" color="fg.muted" fontSize="sm">
          <Spinner size="xs" aria-hidden />
          <Text>
            {reconnecting
              ? 'The connection was lost. Reconnecting to carry on where it was...'
              : text
                ? 'Still writing...'
                : 'Writing your reading...'}
          </Text>
        </HStack>
      )}
    </Surface>
  );
}
