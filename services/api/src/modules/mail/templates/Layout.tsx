import {
  Body,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { ReactNode } from 'react';
import type { MailContext } from '../content.ts';

const page = { backgroundColor: '#f6f4fb', fontFamily: 'Helvetica, Arial, sans-serif' };
const card = {
  backgroundColor: '#ffffff',
  margin: '24px auto',
  padding: '24px',
  maxWidth: '560px',
};
const small = { color: '#5b5870', fontSize: '12px', lineHeight: '18px', margin: '4px 0' };

/**
 * Every message's frame: the greeting, its content, and the footer EU commercial mail must carry
 * (who sends it, where they are, how to reach support), saying it is a service message.
 */
export function Layout({
  context,
  preview,
  title,
  children,
}: {
  context: MailContext;
  preview: string;
  title: string;
  children: ReactNode;
}) {
  const { operator, supportEmail } = context.site;
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Heading as="h1" style={{ fontSize: '22px', color: '#2b2540' }}>
            {title}
          </Heading>
          <Text>{context.recipientName ? `Hello ${context.recipientName},` : 'Hello,'}</Text>
          {children}
          <Text>
            Questions? Write to <Link href={`mailto:${supportEmail}`}>{supportEmail}</Link>.
          </Text>
          <Hr />
          <Section>
            <Text style={small}>{operator.name}</Text>
            {operator.address.map((line) => (
              <Text key={line} style={small}>
                {line}
              </Text>
            ))}
            <Text style={small}>{operator.email}</Text>
            {operator.representative ? (
              <Text style={small}>{`Represented by ${operator.representative}`}</Text>
            ) : null}
            {operator.register ? <Text style={small}>{operator.register}</Text> : null}
            {operator.vatId ? <Text style={small}>{`VAT ID ${operator.vatId}`}</Text> : null}
            <Text style={small}>
              This is a service message about your Astra account; it is not marketing.
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A line of facts: "Credits added: 50". */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text style={{ margin: '4px 0' }}>
      <strong>{`${label}:`}</strong> {children}
    </Text>
  );
}
