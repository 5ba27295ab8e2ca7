import { ArrowLeft } from 'lucide-react';
import { LinkButton } from './LinkButton';

export function BackLink({
  to = '/app',
  label = 'Back to Dashboard',
}: {
  to?: string;
  label?: string;
}) {
  return (
    <LinkButton to={to} variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
      <ArrowLeft aria-hidden />
      {label}
    </LinkButton>
  );
}
