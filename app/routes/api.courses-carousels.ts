import { carouselResource } from "~/models/carousel.server";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 "courses-carousels": the generic resource calls. */
export const { loader, action } = collectionRoute(carouselResource);
