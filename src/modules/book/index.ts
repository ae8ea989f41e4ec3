import { BookResolver } from './book.resolver';
import { type ModuleManifest } from '../../access/module-manifest';

/** The book module's manifest, collected by src/modules/manifests.ts. */
export const bookModule: ModuleManifest = {
  name: 'book',
  resolvers: [BookResolver],
  entities: [],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    /** The desk's home screen: the whole book at once. */
    Book: 'ops',
    BookAumPoint: 'part',
    BookDealingFlow: 'part',
    BookWaitingOrders: 'part',
    BookCutOff: 'part',
    BookChainStatus: 'part',
  },
};
