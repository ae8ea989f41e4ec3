import { RegisterInvestorDocument } from '../generated/graphql';
import { route } from '../route';
import { id, investor, obj, str } from '../openapi/schemas';

export const investorRoutes = [
  route({
    method: 'POST',
    path: '/investor/register',
    auth: 'host',
    doc: {
      summary: 'Register an investor',
      description: 'Each call creates a new `investorId`; the API does not de-duplicate (send an `Idempotency-Key` to retry safely).',
      body: obj({ distributorId: id('DT'), externalInvestorId: str('Any non-empty string'), email: str(), countryCode: str('ISO country code') }, [
        'email',
        'countryCode',
      ]),
      data: investor,
      errors: {
        400: ['distributorId is required', 'externalInvestorId is required', 'email must be a valid email address'],
        404: ['distributorId not found: <distributorId>'],
      },
    },
    document: RegisterInvestorDocument,
    variables: (req) => ({
      input: {
        distributorId: req.body.distributorId,
        externalInvestorId: req.body.externalInvestorId,
        email: req.body.email,
        countryCode: req.body.countryCode,
      },
    }),
    data: (r) => r.registerInvestor,
  }),
];
