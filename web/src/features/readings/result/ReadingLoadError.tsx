import { Alert, Button } from '@chakra-ui/react';
import { PageContainer } from '../../../ui/PageContainer';
import { PageTitle } from '../../../ui/PageTitle';

/** The reading could not be loaded (network or server trouble, not a missing reading). */
export function ReadingLoadError({ retry }: { retry: () => void }) {
  return (
    <PageContainer maxW="2xl">
      <PageTitle>Error loading your reading</PageTitle>
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Error loading your reading</Alert.Title>
          <Alert.Description>Please check your connection and try again.</Alert.Description>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={retry}>
          Try again
        </Button>
      </Alert.Root>
    </PageContainer>
  );
}
