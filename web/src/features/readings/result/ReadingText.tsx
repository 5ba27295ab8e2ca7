import { Heading, List, Stack, Text } from '@chakra-ui/react';
import { Fragment, useMemo } from 'react';
import { headingLevels, type MarkupBlock, parseMarkup, type Span } from './readingMarkup';

const SIZES: Record<number, 'lg' | 'md' | 'sm'> = { 3: 'lg', 4: 'md', 5: 'sm', 6: 'sm' };

function Spans({ spans }: { spans: Span[] }) {
  return spans.map((span, index) =>
    span.bold ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: spans of one line never reorder
      <strong key={index}>{span.text}</strong>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: spans of one line never reorder
      <Fragment key={index}>{span.text}</Fragment>
    ),
  );
}

/** A reading's text in the product's markup, as React elements (no HTML is injected). */
export function ReadingText({ text, baseLevel = 3 }: { text: string; baseLevel?: number }) {
  const blocks = useMemo(() => parseMarkup(text), [text]);
  const level = headingLevels(blocks, baseLevel);

  const render = (block: MarkupBlock, index: number) => {
    switch (block.kind) {
      case 'heading':
      case 'subheading': {
        const h = level(block);
        return (
          <Heading
            key={index}
            as={`h${h}` as 'h3'}
            size={SIZES[h] ?? 'sm'}
            fontFamily={block.kind === 'heading' ? 'heading' : 'body'}
            pt={index === 0 ? '0' : '3'}
          >
            {block.text}
          </Heading>
        );
      }
      case 'list':
        return (
          <List.Root key={index} ps="5" gap="1">
            {block.items.map((item, itemIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the text is fixed once parsed
              <List.Item key={itemIndex}>
                <Spans spans={item} />
              </List.Item>
            ))}
          </List.Root>
        );
      default:
        return (
          <Text key={index} lineHeight="tall">
            <Spans spans={block.spans} />
          </Text>
        );
    }
  };

  return <Stack gap="3">{blocks.map(render)}</Stack>;
}
