import type { Me, ProfileUpdate } from '@astra/contracts';
import { api } from '../../app/api';
import { authApi } from '../auth/authApi';

/** Profile commands answer with the new `Me`: write it into the cache instead of refetching. */
const storeAnsweredMe = async (
  _arg: unknown,
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: Me }> },
) => {
  try {
    const { data } = await queryFulfilled;
    dispatch(authApi.util.upsertQueryData('getMe', undefined, data));
  } catch {
    // the caller shows the error
  }
};

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<Me, ProfileUpdate>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
      onQueryStarted: storeAnsweredMe,
    }),
    /** The file itself is the body, typed by its own Content-Type (png, jpeg, gif, webp). */
    uploadAvatar: build.mutation<Me, File>({
      query: (file) => ({
        url: '/me/avatar',
        method: 'PUT',
        body: file,
        headers: { 'Content-Type': file.type },
      }),
      onQueryStarted: storeAnsweredMe,
    }),
    removeAvatar: build.mutation<Me, void>({
      query: () => ({ url: '/me/avatar', method: 'DELETE' }),
      onQueryStarted: storeAnsweredMe,
    }),
    deleteAccount: build.mutation<{ ok: boolean; message: string }, void>({
      query: () => ({ url: '/me', method: 'DELETE' }),
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useUploadAvatarMutation,
  useRemoveAvatarMutation,
  useDeleteAccountMutation,
} = profileApi;
