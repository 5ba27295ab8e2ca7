import { Container, type ContainerProps } from '@chakra-ui/react';

/** The standard page column inside the shell's <main>. */
export function PageContainer(props: ContainerProps) {
  return (
    <Container
      maxW="5xl"
      px={{ base: '4', md: '8' }}
      py={{ base: '6', md: '10' }}
      display="flex"
      flexDirection="column"
      gap="6"
      {...props}
    />
  );
}
