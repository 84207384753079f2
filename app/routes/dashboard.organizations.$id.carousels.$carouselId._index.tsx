import { EditCarousel, carouselAction, carouselLoader } from "~/screens/organization-carousels";

export const loader = carouselLoader("dashboard");
export const action = carouselAction("dashboard");
export default EditCarousel;
