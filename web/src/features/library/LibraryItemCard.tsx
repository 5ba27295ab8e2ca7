import type { LibraryItem } from '@astra/contracts';
import { Badge, Button, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { AudioLines, Trash2 } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { useTimeZone } from '../../app/timeZone';
import { Surface } from '../../ui/Surface';
import { notifyError } from '../../ui/toaster';
import { appTitle, readingOfApp } from '../readings/readingCatalog';
import { formatLibraryDate } from './libraryParams';

interface LibraryItemCardProps {
  item: LibraryItem;
  onDelete: (item: LibraryItem) => void;
}

/**
 * One saved reading: title (the link to its result), date, name or question, credits, and
 * whether its voice guide was used.
 */
export function LibraryItemCard({ item, onDelete }: LibraryItemCardProps) {
  const title = appTitle(item.appId, item.appName);
  const app = readingOfApp(item.appId);
  const timeZone = useTimeZone();
  // A compatibility reading is about two people: both names, as its result page shows them.
  const names =
    item.firstName && item.partnerName ? `${item.firstName} & ${item.partnerName}` : item.firstName;
  const detail = item.question ? `“${item.question}”` : names;

  return (
    <Surface
      as="li"
      flexDirection={{ base: 'column', sm: 'row' }}
      alignItems={{ sm: 'center' }}
      justifyContent="space-between"
      gap="3"
    >
      <Stack gap="1" minW="0" flex="1">
        <Heading as="h2" size="md">
          {app ? (
            <Link asChild color="brand.fg" textDecoration="underline" textUnderlineOffset="3px">
              <RouterLink to={app.resultPath(item.readingId)}>{title}</RouterLink>
            </Link>
          ) : (
            <Button
              variant="plain"
              p="0"
              h="auto"
              fontSize="inherit"
              onClick={() => notifyError(`Unable to open reading for ${title}`)}
            >
              {title}
            </Button>
          )}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          <time dateTime={item.createdAt}>{formatLibraryDate(item.createdAt, timeZone)}</time>
          {item.firstName && item.question ? ` · for ${item.firstName}` : ''}
        </Text>
        {detail && (
          <Text lineClamp={2} wordBreak="break-word">
            {detail}
          </Text>
        )}
        {item.voiceUsed && (
          <Badge colorPalette="purple" variant="subtle" alignSelf="flex-start" gap="1">
            <AudioLines aria-hidden size={14} />
            Voice guide used
          </Badge>
        )}
      </Stack>
      <HStack gap="3" flexShrink="0" justify="space-between">
        <Badge variant="subtle" size="md">
          {item.creditsCharged} {item.creditsCharged === 1 ? 'credit' : 'credits'}
        </Badge>
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          onClick={() => onDelete(item)}
          title={`Delete this ${title} reading`}
        >
          <Trash2 aria-hidden />
          Delete
        </Button>
      </HStack>
    </Surface>
  );
}
