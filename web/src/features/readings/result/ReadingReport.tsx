import { Heading, Text } from '@chakra-ui/react';
import type { ReactNode, RefObject } from 'react';
import { Surface } from '../../../ui/Surface';
import { formatLongDate } from './resultFields';

interface ReadingReportProps {
  title: string;
  reportRef: RefObject<HTMLElement | null>;
  highlighted: boolean;
  /** When the reading was made (its createdAt), shown as 'Generated on March 14, 2026'. */
  generatedAt?: string;
  children: ReactNode;
}

/** The reading's text section: the target of 'Go to Reading', highlighted for 2 seconds. */
export function ReadingReport({
  title,
  reportRef,
  highlighted,
  generatedAt,
  children,
}: ReadingReportProps) {
  const generatedOn = formatLongDate(generatedAt);
  return (
    <Surface
      as="section"
      ref={reportRef as RefObject<HTMLDivElement>}
      id="reading-report"
      tabIndex={-1}
      aria-labelledby="reading-report-heading"
      data-highlighted={highlighted || undefined}
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
      {children}
    </Surface>
  );
}
