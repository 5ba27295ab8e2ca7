import { Box, Button, HStack } from '@chakra-ui/react';
import { Activity, BookOpenText, Database, Landmark, LayoutDashboard } from 'lucide-react';
import type { ComponentType } from 'react';
import { Link as RouterLink } from 'react-router';

export type AdminSection = 'overview' | 'ledger' | 'activity' | 'finance' | 'projections';

const SECTIONS: {
  id: AdminSection;
  label: string;
  icon: ComponentType<{ 'aria-hidden'?: boolean }>;
}[] = [
  { id: 'overview', label: 'Overview', icon: LayoutDashboard },
  { id: 'ledger', label: 'Ledger', icon: BookOpenText },
  { id: 'activity', label: 'Activity', icon: Activity },
  { id: 'finance', label: 'Finance', icon: Landmark },
  { id: 'projections', label: 'Projections', icon: Database },
];

/** `?tab=` as a section; anything else is the overview. */
export const sectionOf = (tab: string | null): AdminSection =>
  SECTIONS.find((section) => section.id === tab)?.id ?? 'overview';

const pathOf = (section: AdminSection) =>
  section === 'overview' ? '/admin' : `/admin?tab=${section}`;

/**
 * The panel's sections as links (each has its address, so a reload or a shared link opens the
 * same one); the current one is marked for assistive technology and drawn solid. They wrap onto
 * a second line on a narrow screen.
 */
export function AdminSectionNav({ current }: { current: AdminSection }) {
  return (
    <Box as="nav" aria-label="Admin sections" borderBottomWidth="1px" borderColor="border" pb="3">
      <HStack as="ul" gap="2" wrap="wrap" listStyleType="none">
        {SECTIONS.map(({ id, label, icon: Icon }) => {
          const active = id === current;
          return (
            <li key={id}>
              <Button
                asChild
                size="sm"
                variant={active ? 'solid' : 'ghost'}
                aria-current={active ? 'page' : undefined}
              >
                <RouterLink to={pathOf(id)} id={`admin-nav-${id}`}>
                  <Icon aria-hidden />
                  {label}
                </RouterLink>
              </Button>
            </li>
          );
        })}
      </HStack>
    </Box>
  );
}
