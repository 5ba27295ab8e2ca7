import type { AppView, ReadingKind } from '@astra/contracts';
import {
  Badge,
  Button,
  Heading,
  HStack,
  LinkBox,
  LinkOverlay,
  Skeleton,
  Text,
} from '@chakra-ui/react';
import {
  ArrowRight,
  Hash,
  HeartHandshake,
  LayoutGrid,
  type LucideIcon,
  Orbit,
  Sparkles,
} from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Surface } from '../../ui/Surface';
import type { ReadingAppInfo } from '../readings/readingCatalog';

const ICONS: Record<ReadingKind, LucideIcon> = {
  'natal-chart': Orbit,
  'tarot-celtic-cross': LayoutGrid,
  'tarot-traditional': Sparkles,
  compatibility: HeartHandshake,
  'life-path': Hash,
};

interface ReadingAppCardProps {
  info: ReadingAppInfo;
  app: AppView | undefined;
  costLoading: boolean;
}

/** One reading on the dashboard; the whole card is one link to the reading's form. */
export function ReadingAppCard({ info, app, costLoading }: ReadingAppCardProps) {
  const Icon = ICONS[info.slug];
  const name = app?.name ?? info.name;
  return (
    <LinkBox asChild>
      <Surface as="article" interactive h="full">
        <HStack justify="space-between" align="flex-start">
          <Icon aria-hidden size={28} color="var(--chakra-colors-starlight-fg)" />
          <Skeleton loading={costLoading} rounded="full">
            <Badge variant="subtle" size="md">
              {app ? `${app.creditCost} credits` : 'Price unavailable'}
            </Badge>
          </Skeleton>
        </HStack>
        <Heading as="h3" size="md">
          <LinkOverlay asChild>
            <RouterLink to={info.formPath}>{name}</RouterLink>
          </LinkOverlay>
        </Heading>
        <Text color="fg.muted" flex="1">
          {app?.description || info.blurb}
        </Text>
        <HStack color="brand.fg" fontWeight="medium" fontSize="sm" aria-hidden>
          <span>Start reading</span>
          <ArrowRight size={16} />
        </HStack>
      </Surface>
    </LinkBox>
  );
}

export function ComingSoonCard() {
  return (
    <Surface as="article" tone="muted" h="full">
      <Heading as="h3" size="md">
        More Readings
      </Heading>
      <Text color="fg.muted" flex="1">
        New ways to read the sky are being prepared.
      </Text>
      <Button alignSelf="flex-start" variant="outline" size="sm" disabled>
        Coming Soon
      </Button>
    </Surface>
  );
}
