import { DeleteCarousel, deleteCarouselAction, deleteCarouselLoader } from "~/screens/organization-carousels";

export const loader = deleteCarouselLoader("dashboard");
export const action = deleteCarouselAction("dashboard");
export default DeleteCarousel;
