import { Heading, Text } from '@chakra-ui/react';
import type { ReactNode, RefObject } from 'react';
import { Surface } from '../../../ui/Surface';

interface ReadingReportProps {
  title: string;
  reportRef: RefObject<HTMLElement | null>;
  highlighted: boolean;
  /** A line under the title, e.g. 'Generated on March 14, 2026'. */
  meta?: string;
  children: ReactNode;
}

/** The reading's text section: the target of 'Go to Reading', highlighted for 2 seconds. */
export function ReadingReport({
  title,
  reportRef,
  highlighted,
  meta,
  children,
}: ReadingReportProps) {
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
      {meta && (
        <Text fontSize="sm" color="fg.muted" mt="-2">
          {meta}
        </Text>
      )}
      {children}
    </Surface>
  );
}
