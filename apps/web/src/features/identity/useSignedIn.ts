import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../shared/auth-store.ts';
import type { LoginResult } from './api.ts';
import { afterLoginPath } from './redirect.ts';

/** Leaves the login screen for the screen the guard's `redirect` names, or home. */
export function useAfterLogin(): () => void {
  const navigate = useNavigate();
  const { search } = useLocation();
  return () => navigate(afterLoginPath(search), { replace: true });
}

/** Stores the session and returns the user to the screen that sent them to log in (or home). */
export function useSignedIn() {
  const afterLogin = useAfterLogin();
  return (result: LoginResult) => {
    useAuth.getState().signIn(result.token, result.member);
    afterLogin();
  };
}
