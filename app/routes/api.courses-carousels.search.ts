import { carouselResource } from "~/models/carousel.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "courses-carousels": the generic resource calls. */
export const { loader, action } = searchRoute(carouselResource);
