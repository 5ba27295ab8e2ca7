import { Badge, Box, Container, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Star } from 'lucide-react';
import { Section, Surface } from '../../ui/Surface';
import { TESTIMONIALS } from './landingContent';
import { useVisitorCounter } from './visitorCounter';

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
            <Box as="span" fontWeight="semibold" color="fg">
              {count.toLocaleString('en-US')}+ readings completed
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
