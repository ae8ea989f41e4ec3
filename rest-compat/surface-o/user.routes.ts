import { shownId } from '../../src/common/ids';
import { RegisterUserDocument } from '../generated/graphql';
import { route } from '../route';
import { id, obj, str, user } from '../openapi/schemas';

export const userRoutes = [
  route({
    method: 'POST',
    path: '/user/register',
    auth: 'bearer',
    doc: {
      summary: 'Register a user (investor)',
      body: obj({ email: str(), name: str(), distributorId: id('PT'), uniqueId: str("Caller's own reference") }, ['distributorId', 'uniqueId']),
      data: user,
      errors: { 400: ['email is required', 'name is required'], 404: ['distributorId not found'] },
    },
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
      distributorId: shownId(u.distributorId, 'distributor', 'O'),
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
