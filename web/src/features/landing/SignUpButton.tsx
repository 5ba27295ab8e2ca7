import type { ReactNode } from 'react';
import { LinkButton } from '../../ui/LinkButton';

/** The landing page's gold call to action on the night sky: to the sign-in page. */
export function SignUpButton({ children }: { children: ReactNode }) {
  return (
    <LinkButton
      to="/auth"
      size="xl"
      bg="gold.300"
      color="navy.900"
      _hover={{ bg: 'gold.200' }}
      focusRingColor="gold.300"
    >
      {children}
    </LinkButton>
  );
}
