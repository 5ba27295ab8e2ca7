import { Container, chakra, Heading, Stack, Text } from '@chakra-ui/react';
import { Section } from '../../ui/Surface';
import { FAQS } from './landingContent';

/** Native <details>: keyboard- and screen-reader-friendly without any script. */
const Details = chakra('details', {
  base: {
    bg: 'bg.panel',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'lg',
    px: '5',
    py: '4',
    '& > summary': {
      cursor: 'pointer',
      fontWeight: 'semibold',
      listStylePosition: 'outside',
      rounded: 'sm',
      _focusVisible: {
        outline: '2px solid',
        outlineColor: 'brand.focusRing',
        outlineOffset: '2px',
      },
    },
    '&[open] > summary': { mb: '2' },
  },
});

export function FaqSection() {
  return (
    <Section aria-labelledby="faq-heading">
      <Container maxW="3xl">
        <Heading as="h2" id="faq-heading" textStyle="sectionTitle" textAlign="center" mb="8">
          Questions, answered
        </Heading>
        <Stack gap="3">
          {FAQS.map((faq) => (
            <Details key={faq.question}>
              <summary>{faq.question}</summary>
              <Text color="fg.muted">{faq.answer}</Text>
            </Details>
          ))}
        </Stack>
      </Container>
    </Section>
  );
}
