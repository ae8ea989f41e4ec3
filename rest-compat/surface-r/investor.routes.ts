import { RegisterInvestorDocument } from '../generated/graphql';
import { route } from '../route';

export const investorRoutes = [
  route({
    method: 'POST',
    path: '/investor/register',
    auth: 'host',
    document: RegisterInvestorDocument,
    variables: (req) => ({
      input: {
        distributorId: req.body.distributorId,
        externalInvestorId: req.body.externalInvestorId,
        email: req.body.email,
        countryCode: req.body.countryCode,
      } as never,
    }),
    data: (r) => r.registerInvestor,
  }),
];
