import { Badge, Box, Container, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Star } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Section, Surface } from '../../ui/Surface';
import { TESTIMONIALS } from './landingContent';
import {
  COUNTER_ATTRIBUTE,
  COUNTER_CAP,
  COUNTER_START,
  COUNTER_TICK_MS,
  counterText,
  countOnPage,
  nextCount,
} from './visitorCounter';

/** The app's counter: it goes on from the number on the page, so the page it takes over matches. */
function useVisitorCounter(): number {
  const [count, setCount] = useState(() => countOnPage() ?? COUNTER_START);
  useEffect(() => {
    if (count >= COUNTER_CAP) return;
    const timer = window.setTimeout(() => setCount(nextCount), COUNTER_TICK_MS);
    return () => window.clearTimeout(timer);
  }, [count]);
  return count;
}

function Rating({ value }: { value: number }) {
  return (
    <HStack gap="0.5" color="starlight.fg">
      <Text srOnly>{`Rated ${value} out of 5`}</Text>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star key={i} aria-hidden size={16} fill={i <= value ? 'currentColor' : 'none'} />
      ))}
    </HStack>
  );
}

export function TestimonialsSection() {
  const count = useVisitorCounter();
  return (
    <Section tone="subtle" aria-labelledby="testimonials-heading">
      <Container maxW="6xl">
        <Stack gap="2" textAlign="center" mb="10">
          <Heading as="h2" id="testimonials-heading" textStyle="sectionTitle">
            What seekers are saying
          </Heading>
          <Text color="fg.muted" fontVariantNumeric="tabular-nums">
            <Box as="span" fontWeight="semibold" color="fg" {...{ [COUNTER_ATTRIBUTE]: count }}>
              {counterText(count)}
            </Box>{' '}
            and counting
          </Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="5">
          {TESTIMONIALS.map((testimonial) => (
            <Surface as="figure" key={testimonial.name} m="0">
              <HStack justify="space-between" wrap="wrap" gap="2">
                <Rating value={testimonial.rating} />
                <Badge variant="subtle">{testimonial.reading}</Badge>
              </HStack>
              <Text as="blockquote" flex="1">
                “{testimonial.quote}”
              </Text>
              <Text as="figcaption" fontWeight="semibold" color="fg.muted">
                {testimonial.name}
              </Text>
            </Surface>
          ))}
        </SimpleGrid>
      </Container>
    </Section>
  );
}
