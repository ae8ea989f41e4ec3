import { HoldingDocument } from '../generated/graphql';
import { route } from '../route';

export const holdingRoutes = [
  route({
    method: 'GET',
    path: '/transaction/holdings/user/:userId/shareclass/:shareClassId',
    auth: 'bearer',
    document: HoldingDocument,
    variables: (req) => ({ userId: req.params.userId, shareClassId: req.params.shareClassId }),
    data: (r) => r.holding,
  }),
];
