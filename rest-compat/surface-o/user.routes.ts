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
      errors: { 400: ['email is required', 'email must be a valid email address', 'name is required'], 404: ['distributorId not found: <distributorId>'] },
    },
    document: RegisterUserDocument,
    variables: (req) => ({
      input: {
        email: req.body.email,
        name: req.body.name,
        distributorId: req.body.distributorId,
        uniqueId: req.body.uniqueId,
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
