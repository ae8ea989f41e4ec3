import { shareClassRoutes } from '../surface-r/share-class.routes';

/** Surface O's funds and NAVs: R's share-class rows under `/assets/shareclass`, behind a bearer token. */
export const assetRoutes = shareClassRoutes('/assets/shareclass', 'bearer');
