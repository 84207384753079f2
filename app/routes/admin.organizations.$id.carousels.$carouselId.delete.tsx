import { DeleteCarousel, deleteCarouselAction, deleteCarouselLoader } from "~/screens/organization-carousels";

export const loader = deleteCarouselLoader("admin");
export const action = deleteCarouselAction("admin");
export default DeleteCarousel;
