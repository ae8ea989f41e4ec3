import { HoldingDocument } from '../generated/graphql';
import { route } from '../route';
import { holding, id } from '../openapi/schemas';

export const holdingRoutes = [
  route({
    method: 'GET',
    path: '/transaction/holdings/user/:userId/shareclass/:shareClassId',
    auth: 'bearer',
    doc: {
      summary: "A user's token holding in a share class",
      params: { userId: id('US'), shareClassId: id('SC') },
      data: holding,
      errors: { 400: ['invalid shareClassId format'], 404: ['userId not found', 'shareClassId not found'] },
    },
    document: HoldingDocument,
    variables: (req) => ({ userId: req.params.userId, shareClassId: req.params.shareClassId }),
    data: (r) => r.holding,
  }),
];
