import { Button, type ButtonProps } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

type LinkButtonProps = Omit<ButtonProps, 'asChild'> & { to: string; replace?: boolean };

/** A router link that looks like a button: navigation stays a real <a href>. */
export function LinkButton({ to, replace, children, ...buttonProps }: LinkButtonProps) {
  return (
    <Button asChild {...buttonProps}>
      <RouterLink to={to} replace={replace}>
        {children}
      </RouterLink>
    </Button>
  );
}
