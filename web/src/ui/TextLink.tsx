import { Link, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

type TextLinkProps = Omit<LinkProps, 'asChild' | 'href'> & { to: string };

/** An inline router link with the theme's link styling (underlined for visibility). */
export function TextLink({ to, children, ...linkProps }: TextLinkProps) {
  return (
    <Link
      asChild
      color="brand.fg"
      textDecoration="underline"
      textUnderlineOffset="3px"
      {...linkProps}
    >
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}
