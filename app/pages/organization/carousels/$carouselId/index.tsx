import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditCarousel, carouselAction, carouselLoader } from "~/screens/organization-carousels";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => carouselLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => carouselAction(areaOf(args.request))(args);
export default EditCarousel;
