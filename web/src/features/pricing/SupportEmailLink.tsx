import { Link } from '@chakra-ui/react';
import { useGetSiteQuery } from '../site/siteApi';

/** The support address (`SUPPORT_EMAIL`) as a mail link, underlined like the theme's text links. */
export function SupportEmailLink() {
  const { data: site } = useGetSiteQuery();
  if (!site) return <>our support team</>;
  return (
    <Link
      href={`mailto:${site.supportEmail}`}
      color="brand.fg"
      textDecoration="underline"
      textUnderlineOffset="3px"
    >
      {site.supportEmail}
    </Link>
  );
}
