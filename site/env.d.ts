/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** The record a record page shows, built by the read model (read-model/); pages never query the database. */
    view?: import('../core/schemas/views.ts').RecordView;
    /** A list page (/problems, /solutions, /discussions): one page of a collection, built by the read model. */
    collection?: import('../core/schemas/collection-views.ts').CollectionView;
    /** The home page: newest problems and best-confirmed solutions, built by the read model. */
    home?: import('../core/schemas/home-view.ts').HomeView;
    /** Whether writes are fenced at render time: pages then show a banner (layouts/Base.astro). */
    serving?: import('../core/serving-fence.ts').ServingState;
    /** /account: set by the service for a signed-in person. */
    account?: import('../core/account-views.ts').AccountPageView;
    /** /oauth/consent: set by the service for an OAuth authorization in progress. */
    consent?: import('../core/account-views.ts').ConsentView;
  }
}
