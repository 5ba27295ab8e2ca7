import { RELATIONSHIP_BANDS, relationshipBandIndex } from '@astra/contracts';
import { Badge, Heading, HStack, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useParams } from 'react-router';
import { LinkButton } from '../../../ui/LinkButton';
import { PageContainer } from '../../../ui/PageContainer';
import { Surface } from '../../../ui/Surface';
import { VoiceSessionCard } from '../../voice/VoiceSessionCard';
import { HowToUseCard } from '../result/HowToUseCard';
import { ReadingReport } from '../result/ReadingReport';
import { ReadingResultPage } from '../result/ReadingResultPage';
import { ResultHeader } from '../result/ResultHeader';
import { useReadingSource } from '../result/useReadingSource';
import { COMPATIBILITY_SCORE_MAX, compatibilityFromReading } from './compatibilityReading';
import { PersonCard } from './PersonCard';
import { ScoreRing } from './ScoreRing';

export default function CompatibilityResultPage() {
  const { readingId } = useParams();
  const source = useReadingSource(readingId, 'compatibility', compatibilityFromReading, null);

  return (
    <ReadingResultPage
      source={source}
      voiceText={(view) => view.report}
      loadingLabel="Loading your compatibility reading..."
      notFound={{
        text: "We couldn't find your compatibility reading. Please try generating a new one.",
        actionLabel: 'Back to Compatibility',
        actionTo: '/compatibility',
      }}
    >
      {({ view, reading }) => (
        <PageContainer maxW="4xl">
          <ResultHeader
            title="Compatibility Reading"
            actions={
              <LinkButton to="/compatibility" size="sm">
                <Plus aria-hidden />
                New Reading
              </LinkButton>
            }
          />
          <HowToUseCard />
          <VoiceSessionCard />
          <Surface
            as="section"
            aria-labelledby="score-heading"
            tone="glow"
            flexDirection={{ base: 'column', sm: 'row' }}
            alignItems="center"
            gap="6"
          >
            <ScoreRing score={view.score} animationKey={readingId ?? ''} />
            <Stack
              gap="3"
              align={{ base: 'center', sm: 'flex-start' }}
              textAlign={{ base: 'center', sm: 'start' }}
            >
              <Heading as="h2" textStyle="sectionTitle" id="score-heading">
                Your Compatibility Score
              </Heading>
              <Text color="fg.muted">
                {view.score} of a possible {COMPATIBILITY_SCORE_MAX} points on Ciro Discepolo's
                scale, which counts only the strongest ties between two charts: Sun, Moon and
                Ascendant contacts, Venus–Mars contacts, and Sun signs of the same quality. It
                measures how intense the bond is, not whether it is a good one.
              </Text>
              {view.contacts && view.contacts.total > 0 && (
                <Text data-testid="contact-counts">
                  All {view.contacts.total} contacts between your charts:{' '}
                  <strong>{view.contacts.harmonious} harmonious</strong>,{' '}
                  <strong>{view.contacts.challenging} challenging</strong>
                  {view.contacts.conjunctions > 0 &&
                    `, ${view.contacts.conjunctions} ${view.contacts.conjunctions === 1 ? 'conjunction' : 'conjunctions'}`}
                  .
                </Text>
              )}
              <HStack gap="2" wrap="wrap" justify={{ base: 'center', sm: 'flex-start' }}>
                {view.description && (
                  <Badge size="lg" colorPalette="brand" variant="solid">
                    <VisuallyHidden>Rating: </VisuallyHidden>
                    {view.description}
                  </Badge>
                )}
                <Text fontSize="sm" color="fg.muted">
                  band {relationshipBandIndex(view.score) + 1} of {RELATIONSHIP_BANDS.length}, from{' '}
                  {RELATIONSHIP_BANDS[0].label} to {RELATIONSHIP_BANDS.at(-1)!.label}
                </Text>
              </HStack>
            </Stack>
          </Surface>
          <Stack as="section" aria-labelledby="people-heading" gap="3">
            <Heading as="h2" size="md" id="people-heading">
              The Two of You
            </Heading>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <PersonCard person={view.person1} number={1} />
              <PersonCard person={view.person2} number={2} />
            </SimpleGrid>
          </Stack>
          <ReadingReport
            title="Your Complete Compatibility Analysis"
            generatedAt={reading?.createdAt}
            text={view.report}
          />
        </PageContainer>
      )}
    </ReadingResultPage>
  );
}
