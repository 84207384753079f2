import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { CoverField } from "~/components/cover-field";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { MoveButtons } from "~/components/move-buttons";
import {
  carouselCourseIds,
  createCarousel,
  deleteCarousel,
  getCarousel,
  listCarousels,
  moveCarousel,
  moveCourseInCarousel,
  updateCarousel,
} from "~/models/carousel.server";
import { coverChoices, setCover } from "~/models/browse.server";
import { carouselFormSchema } from "~/models/forms/browse";
import { courseResource } from "~/models/course.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { moveIntent, readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";

/** Carousels (docs/product.md §2): a title, published or not, an ordered list of courses; carousels reorder too. */
const base = (m: Managed) => `${m.base}/carousels`;

export function carouselsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, (m) => ({
      base: base(m),
      carousels: listCarousels(m.db, m.viewer).map((c) => ({
        id: c.id,
        title: c.title,
        published: c.published,
        count: carouselCourseIds(m.db, m.viewer, c.id).length,
      })),
    }));
}

const newCarouselSchema = carouselFormSchema.pick({ title: true, published: true });

export function carouselsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, async (m) => {
      const formData = await readForm(request, context);
      const move = moveIntent(formData);
      if (move) {
        moveCarousel(m.db, move.id, { direction: move.direction });
        return redirect(base(m));
      }
      const submission = parseForm(formData, newCarouselSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const created = createCarousel(m.db, { ...submission.value, course_ids: [] });
      return redirectWithFlash(created.ok ? `${base(m)}/${created.value.id}` : base(m), "flash.carouselSaved");
    });
}

export function Carousels() {
  const { t } = useTranslation();
  const { base: here, carousels } = useLoaderData<{
    base: string;
    carousels: Array<{ id: number; title: string; published: boolean; count: number }>;
  }>();
  const [form, fields] = useZodForm({ schema: newCarouselSchema, lastResult: useActionData<SubmissionResult<string[]>>() });
  return (
    <section>
      <h2>{t("carousels.title")}</h2>
      {carousels.length === 0 ? (
        <p className="empty-state">{t("carousels.empty")}</p>
      ) : (
        <table className="table" data-testid="carousels">
          <tbody>
            {carousels.map((c, i) => (
              <tr key={c.id} data-carousel={c.title}>
                <td>
                  <Link to={`${here}/${c.id}`}>{c.title}</Link>
                </td>
                <td>{t("categories.courses", { count: c.count })}</td>
                <td>
                  {c.published ? (
                    <span className="badge published">{t("courses.published")}</span>
                  ) : (
                    <span className="badge">{t("courses.draft")}</span>
                  )}
                </td>
                <td className="actions">
                  <MoveButtons id={c.id} first={i === 0} last={i === carousels.length - 1} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <h3>{t("carousels.create")}</h3>
        <div className="field">
          <label htmlFor="carousel-title">{t("carousels.name")}</label>
          <input {...controlProps(fields.title, "carousel-title")} key={fields.title.key} maxLength={200} required />
          <ErrorList id="carousel-title-error" errors={fields.title.errors} />
        </div>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name={fields.published.name}
              defaultChecked={fields.published.initialValue === "on"}
              key={fields.published.key}
            />{" "}
            {t("carousels.published")}
          </label>
        </div>
        <button type="submit" className="primary" data-testid="create-carousel">
          {t("carousels.create")}
        </button>
      </Form>
    </section>
  );
}

function carouselFrom(m: Managed, id: string | undefined) {
  const carousel = /^\d{1,15}$/.test(id ?? "") ? getCarousel(m.db, Number(id)) : undefined;
  if (!carousel) throw new Response("Not Found", { status: 404 });
  return carousel;
}

export function carouselLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, (m) => {
      const carousel = carouselFrom(m, params.carouselId);
      const all = (
        courseResource.list(m.db, m.viewer, { page: 1, perPage: 500 }, {}) as {
          items: Array<{ id: number; title: string }>;
        }
      ).items;
      const inside = carouselCourseIds(m.db, m.viewer, carousel.id);
      const titles = new Map(all.map((c) => [c.id, c.title]));
      return {
        base: base(m),
        carousel: {
          id: carousel.id,
          title: carousel.title,
          published: carousel.published,
          coverFileId: carousel.coverFileId,
          preview: carousel.coverFileId ? context.platform.imageUrl(m.organization.id, carousel.coverFileId, "cover") : null,
        },
        images: coverChoices(m.db),
        courses: inside.map((id) => ({ id, title: titles.get(id) ?? String(id) })),
        others: all.filter((c) => !inside.includes(c.id)),
      };
    });
}

export function carouselAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, async (m) => {
      const carousel = carouselFrom(m, params.carouselId);
      const here = `${base(m)}/${carousel.id}`;
      const formData = await readForm(request, context);
      const move = moveIntent(formData);
      if (move) {
        moveCourseInCarousel(m.db, m.viewer, carousel.id, move.id, { direction: move.direction });
        return redirect(here);
      }
      const intent = text(formData, "intent");
      const current = carouselCourseIds(m.db, m.viewer, carousel.id);
      if (intent === "add-course" || intent === "remove-course") {
        const id = Number(text(formData, "course_id"));
        const next = intent === "add-course" ? [...current, id] : current.filter((c) => c !== id);
        const result = updateCarousel(m.db, carousel.id, { course_ids: next });
        if (result && !result.ok) return json<CarouselReply>({ courseErrors: [result.message] }, { status: 400 });
        return redirect(here);
      }
      const submission = parseForm(formData, carouselFormSchema);
      if (submission.status !== "success") return json<CarouselReply>({ result: submission.reply() }, { status: 400 });
      const { cover_file_id: chosen, ...fields } = submission.value;
      // The cover (issue 18): checked before anything is written, so a bad choice changes nothing. A form
      // without the field leaves the cover as it is; an empty choice clears it.
      const cover = formData.has("cover_file_id") ? (chosen ?? null) : undefined;
      const failed = m.db.transaction((tx) => {
        if (cover !== undefined) {
          const set = setCover(tx, "carousel", carousel.id, cover);
          if (!set.ok) return set;
        }
        updateCarousel(tx, carousel.id, fields);
        return null;
      });
      if (failed)
        return json<CarouselReply>({ result: submission.reply({ fieldErrors: { [failed.field]: [failed.message] } }) }, { status: 400 });
      return redirectWithFlash(base(m), "flash.carouselSaved");
    });
}

/** The carousel's page answers for its fields' form (a conform reply) or for a course added or removed. */
type CarouselReply = { result?: SubmissionResult<string[]>; courseErrors?: string[] };

export function EditCarousel() {
  const { t } = useTranslation();
  const data = useLoaderData<{
    base: string;
    carousel: { id: number; title: string; published: boolean; coverFileId: number | null; preview: string | null };
    images: Array<{ id: number; name: string }>;
    courses: Array<{ id: number; title: string }>;
    others: Array<{ id: number; title: string }>;
  }>();
  const reply = useActionData<CarouselReply>();
  const [form, fields] = useZodForm({
    schema: carouselFormSchema,
    lastResult: reply?.result,
    defaultValue: {
      title: data.carousel.title,
      published: data.carousel.published ? "on" : undefined,
      cover_file_id: data.carousel.coverFileId ? String(data.carousel.coverFileId) : "",
    },
  });
  return (
    <section>
      <h2>{t("carousels.edit")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <div className="field">
          <label htmlFor="carousel-title">{t("carousels.name")}</label>
          <input {...controlProps(fields.title, "carousel-title")} key={fields.title.key} maxLength={200} required />
          <ErrorList id="carousel-title-error" errors={fields.title.errors} />
        </div>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name={fields.published.name}
              defaultChecked={fields.published.initialValue === "on"}
              key={fields.published.key}
            />{" "}
            {t("carousels.published")}
          </label>
        </div>
        <CoverField
          id="carousel-cover"
          value={fields.cover_file_id.initialValue as string | undefined}
          preview={data.carousel.preview}
          images={data.images}
          errors={fields.cover_file_id.errors}
        />
        <button type="submit" name="intent" value="save" className="primary">
          {t("carousels.save")}
        </button>
      </Form>
      <div className="panel">
        <h3>{t("carousels.courses")}</h3>
        <FormErrors errors={reply?.courseErrors} />
        {data.courses.length === 0 ? <p className="empty-state">{t("carousels.noCourses")}</p> : null}
        <ol className="lesson-list">
          {data.courses.map((c, i) => (
            <li key={c.id}>
              {c.title}
              <MoveButtons id={c.id} first={i === 0} last={i === data.courses.length - 1} />
              <Form method="post" className="inline-form">
                <input type="hidden" name="course_id" value={c.id} />
                <button type="submit" name="intent" value="remove-course" className="danger">
                  {t("courses.remove")}
                </button>
              </Form>
            </li>
          ))}
        </ol>
        {data.others.length ? (
          <Form method="post" className="subform">
            <label>
              <span className="visually-hidden">{t("carousels.chooseCourse")}</span>
              <select name="course_id">
                {data.others.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>{" "}
            <button type="submit" name="intent" value="add-course">
              {t("carousels.addCourse")}
            </button>
          </Form>
        ) : null}
      </div>
      <div className="panel danger-zone">
        <Link to={`${data.base}/${data.carousel.id}/delete`} className="button danger">
          {t("carousels.delete")}
        </Link>
      </div>
    </section>
  );
}

export function deleteCarouselLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, (m) => {
      const carousel = carouselFrom(m, params.carouselId);
      return { name: carousel.title, back: `${base(m)}/${carousel.id}` };
    });
}

export function deleteCarouselAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:carousel" }, async (m) => {
      const carousel = carouselFrom(m, params.carouselId);
      await readForm(request, context);
      deleteCarousel(m.db, carousel.id);
      return redirectWithFlash(base(m), "flash.carouselDeleted");
    });
}

export function DeleteCarousel() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
