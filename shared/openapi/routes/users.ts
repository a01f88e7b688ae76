import type { usersRoutes } from '../../route-groups/users';
import type { GroupDocs } from '../route-doc';

export const usersDocs: GroupDocs<typeof usersRoutes> = {
  usersCreate: {
    description:
      'The organisation must exist and the e-mail be unique in it. `active` defaults to true. The access key is answered this once ' +
      '(Message and Meta.access_key); only its hash is kept.',
    success: 'User created; Message and Meta.access_key hold its access key, ID its id',
    answers: { 409: 'The e-mail is taken in the organisation', 422: 'The organisation does not exist' },
  },
  usersUpdate: {
    description:
      'Replaces the editable fields: email_address and active are required, other omitted members take their create defaults, an ' +
      'omitted password keeps the stored one. The organisation, id, access key and stamps are kept.',
    success: 'User updated; Meta is the user',
    etag: true,
    answers: { 404: 'No such user', 409: 'The e-mail is taken in the organisation' },
  },
  usersRotateAccessKey: {
    description: 'The old key and the new one are swapped in one transaction, so exactly one is valid at any time.',
    success: 'New access key issued (Message and Meta.access_key), shown this once',
    etag: true,
    answers: { 404: 'No such user' },
  },
  usersList: {
    description: "Users of the caller's organisation in creation order, without access keys or passwords. Paged (contract §5).",
    success: 'A page of users',
  },
  usersSearch: {
    description: 'Deprecated: list with a filter. Matches q against the e-mail address, ignoring case.',
    success: 'A page of matching users',
  },
};
