import { Button, Heading, Text } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { Surface } from '../../ui/Surface';

/** The right of access: everything Astra holds about the user, as one JSON file. */
export function DownloadDataSection() {
  return (
    <Surface as="section" aria-labelledby="download-data-heading">
      <Heading as="h2" size="md" id="download-data-heading">
        Your Data
      </Heading>
      <Text color="fg.muted">
        Download a copy of everything we hold about you: your profile and birth details, readings,
        credit history, payments and feedback, in one JSON file.
      </Text>
      <Button asChild variant="outline" alignSelf="flex-start">
        {/* The server streams the file and names it (Content-Disposition). */}
        <a href="/api/me/export" download>
          <Download aria-hidden />
          Download my data
        </a>
      </Button>
    </Surface>
  );
}
