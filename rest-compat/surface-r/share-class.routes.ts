import { LiveNavDocument, NavHistoryDocument, ShareClassDocument, ShareClassesDocument } from '../generated/graphql';
import { queryValue, route } from '../route';
import { listOf, shareClassRecord } from '../shapes';

/** Share classes and NAVs under `/funds/shareclass`; surface O serves the same under `/assets/shareclass`. */
export function shareClassRoutes(base: '/funds/shareclass' | '/assets/shareclass', auth: 'host' | 'bearer') {
  return [
    route({
      method: 'GET',
      path: `${base}/all`,
      auth,
      document: ShareClassesDocument,
      variables: () => ({}),
      data: (r) => listOf(r.shareClasses.map(shareClassRecord)),
    }),
    route({
      method: 'GET',
      path: `${base}/nav/live`,
      auth,
      document: LiveNavDocument,
      variables: (req) => ({ shareClassId: queryValue(req, 'shareClassId') ?? '' }),
      data: (r) => r.liveNav,
    }),
    route({
      method: 'GET',
      path: `${base}/nav/history`,
      auth,
      document: NavHistoryDocument,
      variables: (req) => ({
        shareClassId: queryValue(req, 'shareClassId') ?? '',
        startDate: queryValue(req, 'startDate') || null,
        endDate: queryValue(req, 'endDate') || null,
      }) as never,
      data: (r) => r.navHistory,
    }),
    route({
      method: 'GET',
      path: `${base}/:shareClassId`,
      auth,
      document: ShareClassDocument,
      variables: (req) => ({ id: req.params.shareClassId }),
      data: (r) => shareClassRecord(r.shareClass),
    }),
  ];
}
