import { Heading, Text } from '@chakra-ui/react';
import { Sparkles } from 'lucide-react';
import { LinkButton } from './LinkButton';
import { PageContainer } from './PageContainer';
import { PageTitle } from './PageTitle';
import { Surface } from './Surface';

interface ComingSoonPageProps {
  title: string;
  /** What this page will do once it is built. */
  description?: string;
}

/** An honest stand-in for screens of later issues; each route keeps its own page file. */
export function ComingSoonPage({ title, description }: ComingSoonPageProps) {
  return (
    <PageContainer maxW="3xl">
      <PageTitle>{title}</PageTitle>
      <Surface tone="glow" alignItems="flex-start" gap="4">
        <Sparkles aria-hidden color="var(--chakra-colors-starlight-fg)" />
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        {description && <Text color="fg.muted">{description}</Text>}
        <Text>This part of Astra is on its way. Check back soon.</Text>
        <LinkButton to="/app">Back to Dashboard</LinkButton>
      </Surface>
    </PageContainer>
  );
}
