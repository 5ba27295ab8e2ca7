import { Link } from '@chakra-ui/react';

export const SUPPORT_EMAIL = 'support@astra.example';

/** The support address as a mail link, underlined like the theme's text links. */
export function SupportEmailLink() {
  return (
    <Link
      href={`mailto:${SUPPORT_EMAIL}`}
      color="brand.fg"
      textDecoration="underline"
      textUnderlineOffset="3px"
    >
      {SUPPORT_EMAIL}
    </Link>
  );
}
