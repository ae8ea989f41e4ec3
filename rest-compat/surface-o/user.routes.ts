import { alias } from '../../src/common/ids';
import { RegisterUserDocument } from '../generated/graphql';
import { route } from '../route';

export const userRoutes = [
  route({
    method: 'POST',
    path: '/user/register',
    auth: 'bearer',
    document: RegisterUserDocument,
    variables: (req) => ({
      input: {
        email: req.body.email as string | undefined,
        name: req.body.name as string | undefined,
        distributorId: req.body.distributorId as string | undefined,
        uniqueId: req.body.uniqueId as string | undefined,
      },
    }),
    data: ({ registerUser: u }) => ({
      userId: u.userId,
      distributorId: alias(u.distributorId, 'PT'),
      uniqueId: u.externalInvestorId ?? null,
      email: u.email,
      name: u.name,
      status: u.status,
      createdAt: u.createdAt,
      createdBy: u.createdBy,
      updatedAt: u.updatedAt,
      updatedBy: u.updatedBy,
    }),
  }),
];
