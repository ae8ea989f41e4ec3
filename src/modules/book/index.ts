import { BookResolver } from './book.resolver';
import { TodayResolver } from './today.resolver';
import { type ModuleManifest } from '../../access/module-manifest';
import type { BookService } from './book.service';
import type { TodayService } from './today.queries';

/** The services the book module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    book: {
      book: BookService;
      today: TodayService;
    };
  }
}

/** The book module's manifest, collected by src/modules/manifests.ts. */
export const bookModule: ModuleManifest<'book'> = {
  name: 'book',
  services: { book: true, today: true },
  resolvers: [BookResolver, TodayResolver],
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
    /** What the desk has to do today (the console's home screen). */
    Today: 'ops',
    TodayOrderToAccept: 'part',
    TodayNavDue: 'part',
    TodaySettlementDue: 'part',
    TodayApprovals: 'part',
    TodayFailedTransfer: 'part',
    TodayUnexplained: 'part',
    TodayAum: 'part',
  },
};
