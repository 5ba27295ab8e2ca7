import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';

/** Spec §1: every legal page carries the same revision date. */
export const LEGAL_LAST_UPDATED = 'September 10, 2025';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** Shared layout of the legal pages: title, revision date, numbered sections. */
export function LegalDocument({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <PageContainer maxW="3xl">
      <PageTitle>{title}</PageTitle>
      <BackLink to="/legal" label="All legal information" />
      <Stack gap="2">
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        <Text color="fg.muted">Last updated {LEGAL_LAST_UPDATED}</Text>
      </Stack>
      <Text>{intro}</Text>
      {sections.map((section, index) => (
        <Stack as="section" key={section.title} gap="2">
          <Heading as="h2" size="lg">
            {index + 1}. {section.title}
          </Heading>
          <Stack gap="2" color="fg.muted" css={{ '& p': { lineHeight: '1.7' } }}>
            {section.body}
          </Stack>
        </Stack>
      ))}
    </PageContainer>
  );
}
