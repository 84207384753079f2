import { EditCarousel, carouselAction, carouselLoader } from "~/screens/organization-carousels";

export const loader = carouselLoader("admin");
export const action = carouselAction("admin");
export default EditCarousel;
