import { LiveNavDocument, NavHistoryDocument, ShareClassDocument, ShareClassesDocument } from '../generated/graphql';
import { queryValue, route } from '../route';
import { listOf, shareClassRecord } from '../shapes';
import { arrayOf, epochMs, id, listOf as listSchema, nav, shareClass } from '../openapi/schemas';

const shareClassIdQuery = { ...id('SC'), required: true, description: 'SC######' };

/** Share classes and NAVs under `/funds/shareclass`; surface O serves the same under `/assets/shareclass`. */
export function shareClassRoutes(base: '/funds/shareclass' | '/assets/shareclass', auth: 'host' | 'bearer') {
  return [
    route({
      method: 'GET',
      path: `${base}/all`,
      auth,
      doc: { summary: 'Share classes available to the distributor', data: listSchema(shareClass) },
      document: ShareClassesDocument,
      variables: () => ({}),
      data: (r) => listOf(r.shareClasses.map(shareClassRecord)),
    }),
    route({
      method: 'GET',
      path: `${base}/nav/live`,
      auth,
      doc: {
        summary: 'Latest NAV of a share class',
        query: { shareClassId: shareClassIdQuery },
        data: nav,
        errors: { 400: ['shareClassId is required', 'invalid shareClassId format'], 404: ['shareClassId not found', 'No NAV published'] },
      },
      document: LiveNavDocument,
      variables: (req) => ({ shareClassId: queryValue(req, 'shareClassId') ?? '' }),
      data: (r) => r.liveNav,
    }),
    route({
      method: 'GET',
      path: `${base}/nav/history`,
      auth,
      doc: {
        summary: 'NAV history, ascending by publishedAt',
        description: 'With both `startDate` and `endDate`, the entries in the inclusive range; otherwise the last 100.',
        query: { shareClassId: shareClassIdQuery, startDate: epochMs('Inclusive, epoch ms'), endDate: epochMs('Inclusive, epoch ms') },
        data: arrayOf(nav),
        errors: { 400: ['shareClassId is required', 'invalid shareClassId format'], 404: ['shareClassId not found'] },
      },
      document: NavHistoryDocument,
      variables: (req) => ({
        shareClassId: queryValue(req, 'shareClassId') ?? '',
        startDate: queryValue(req, 'startDate') || null,
        endDate: queryValue(req, 'endDate') || null,
      }),
      data: (r) => r.navHistory,
    }),
    route({
      method: 'GET',
      path: `${base}/:shareClassId`,
      auth,
      doc: {
        summary: 'One share class',
        params: { shareClassId: id('SC') },
        data: shareClass,
        errors: { 400: ['invalid shareClassId format'], 404: ['shareClassId not found'] },
      },
      document: ShareClassDocument,
      variables: (req) => ({ id: req.params.shareClassId }),
      data: (r) => shareClassRecord(r.shareClass),
    }),
  ];
}
