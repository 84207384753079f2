import { carouselResource } from "~/models/carousel.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "courses-carousels": the generic resource calls. */
export const { loader, action } = itemRoute(carouselResource);
