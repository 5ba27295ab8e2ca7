import type { Me } from '@astra/contracts';
import { Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { Surface } from '../../../ui/Surface';
import { ImportFromProfileButton } from './ImportFromProfileButton';

interface ReadingFormProps {
  /** The form's heading, which also names the form. */
  heading: string;
  /** A line under the heading, e.g. 'All fields are required.' */
  description?: string;
  /** Fills the form from the profile; answers false when the profile had nothing to give. */
  onImport: (me: Me) => boolean;
  onSubmit: () => void;
  /** The fields and the submit button. */
  children: ReactNode;
}

/** The card of a one-person reading form: its heading, 'Import from Profile', then the fields. */
export function ReadingForm({
  heading,
  description,
  onImport,
  onSubmit,
  children,
}: ReadingFormProps) {
  const headingId = useId();
  const title = (
    <Heading as="h2" size="md" id={headingId}>
      {heading}
    </Heading>
  );

  return (
    <Surface asChild gap="5">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        aria-labelledby={headingId}
      >
        <HStack justify="space-between" wrap="wrap" gap="3">
          {description ? (
            <Stack gap="1">
              {title}
              <Text fontSize="sm" color="fg.muted">
                {description}
              </Text>
            </Stack>
          ) : (
            title
          )}
          <ImportFromProfileButton onImport={onImport} />
        </HStack>
        {children}
      </form>
    </Surface>
  );
}
