import { Button, Menu, Portal } from '@chakra-ui/react';
import { ChevronDown, CircleUser, History, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../features/auth/authApi';
import { useSignOut } from '../features/auth/useSignOut';

/** Loaded on demand: menus bring positioning code that signed-out visitors never need. */
export default function ProfileMenu() {
  const { signOut } = useSignOut();
  const { me } = useCurrentUser();
  return (
    <Menu.Root lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="outline" size="sm">
          <CircleUser aria-hidden />
          Profile
          <ChevronDown aria-hidden />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="48">
            <Menu.Item value="profile" asChild>
              <RouterLink to="/profile">
                <Settings aria-hidden size={16} />
                Profile Settings
              </RouterLink>
            </Menu.Item>
            <Menu.Item value="credits" asChild>
              <RouterLink to="/credits">
                <History aria-hidden size={16} />
                Credit History
              </RouterLink>
            </Menu.Item>
            {me?.role === 'admin' && (
              <Menu.Item value="admin" asChild>
                <RouterLink to="/admin">
                  <ShieldCheck aria-hidden size={16} />
                  Admin Panel
                </RouterLink>
              </Menu.Item>
            )}
            <Menu.Separator />
            <Menu.Item value="sign-out" onSelect={() => void signOut()}>
              <LogOut aria-hidden size={16} />
              Sign Out
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
