const D=require('better-sqlite3');const db=new D('/tmp/lectern-bench-learners-pPVV1Z/org-1/db.sqlite',{readonly:true});
const q="select lp.course_id from lesson_progress lp join lessons l on l.id=lp.lesson_id where lp.user_id=? and lp.course_id in (select value from json_each(?)) group by lp.course_id";
console.log(db.prepare('explain query plan '+q).all(5,'[1]').map(r=>r.detail).join(' | '));
const q2="select l.course_id, count(*) from lessons l join courses c on c.id=l.course_id where l.course_id in (select value from json_each(?)) group by l.course_id";
console.log(db.prepare('explain query plan '+q2).all('[1]').map(r=>r.detail).join(' | '));
const ids=JSON.stringify(Array.from({length:40},(_, i)=>i*7+1)); let t=performance.now(); const st=db.prepare(q2); for(let i=0;i<300;i++) st.all(ids); console.log('totals ms',((performance.now()-t)/300).toFixed(3));
